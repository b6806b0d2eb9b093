import { loadConfig, startService } from '@tiendita/service-kit';
import { serviceOptions } from './app';
import { identityConfigShape } from './config';

void startService(serviceOptions(loadConfig(identityConfigShape)));

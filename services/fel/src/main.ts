import { loadConfig, startService } from '@tiendita/service-kit';
import { serviceOptions } from './app';
import { felConfigShape } from './config';

void startService(serviceOptions(loadConfig(felConfigShape)));

import { loadConfig, startService } from '@tiendita/service-kit';
import { serviceOptions } from './app';
import { gatewayConfigShape } from './config';

void startService(serviceOptions(loadConfig(gatewayConfigShape)));

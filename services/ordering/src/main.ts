import { loadConfig, startService } from '@tiendita/service-kit';
import { serviceOptions } from './app';
import { orderingConfigShape } from './config';

void startService(serviceOptions(loadConfig(orderingConfigShape)));

import { loadConfig, startService } from '@tiendita/service-kit';
import { serviceOptions } from './app';
import { inventoryConfigShape } from './config';

void startService(serviceOptions(loadConfig(inventoryConfigShape)));

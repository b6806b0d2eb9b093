import { loadConfig, startService } from '@tiendita/service-kit';
import { serviceOptions } from './app';
import { catalogConfigShape } from './config';

void startService(serviceOptions(loadConfig(catalogConfigShape)));

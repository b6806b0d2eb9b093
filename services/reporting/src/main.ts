import { loadConfig, startService } from '@tiendita/service-kit';
import { serviceOptions } from './app';
import { reportingConfigShape } from './config';

void startService(serviceOptions(loadConfig(reportingConfigShape)));

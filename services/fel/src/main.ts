import { loadConfig, startService } from '@tiendita/service-kit';
import { setPriority } from 'node:os';
import { serviceOptions } from './app';
import { felConfigShape } from './config';

const config = loadConfig(felConfigShape);
// Below the sale's processes (FEL_NICE): on a machine of two cores shared with ordering, inventory and
// the gateway, certifying a sale must not delay the next one (bench fel).
try {
  if (config.FEL_NICE > 0) setPriority(0, config.FEL_NICE);
} catch {
  // Not allowed to change it here (some containers): FEL runs at the same priority.
}
void startService(serviceOptions(config));

import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { felAccessNumber } from '@tiendita/contracts';
import { felSettingsQueryOptions } from '../api/fel-settings';

/**
 * Whether the store issues FEL, as this device last saw it online: an offline sale's receipt needs
 * it (issue 28) to print the contingency's access number, with no server to ask.
 */
const KEY = 'tiendita.fel.enabled';

export function felOnDevice(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export function rememberFelOnDevice(enabled: boolean): void {
  try {
    localStorage.setItem(KEY, enabled ? '1' : '0');
  } catch {
    // Private mode without storage: the offline receipt then shows no access number; the DTE still carries it.
  }
}

/** While the POS is open online, keeps the device's copy of "FEL on" fresh. */
export function useRememberFelOnDevice(online: boolean): void {
  const settings = useQuery({ ...felSettingsQueryOptions(), enabled: online, staleTime: 60_000 });
  const enabled = settings.data?.enabled;
  useEffect(() => {
    if (enabled !== undefined) rememberFelOnDevice(enabled);
  }, [enabled]);
}

/** The access number an offline sale's receipt prints when FEL is on (the FEL service puts the same one in the DTE); null when off. */
export function offlineAccessNumber(deviceSaleId: string): number | null {
  return felOnDevice() ? felAccessNumber(deviceSaleId) : null;
}

/** Where the demo connects: the embedded simulator (default) or a real deployment given by --url and env. */
import type { RestClientConfig } from '../../../lib/index';
import { startSimulator, type Simulator } from '../../../lib/simulator/index';
import type { Target } from './args';

/** Addresses and credentials of one run. Holds secrets: never print it. */
export interface Endpoints {
  /** For the header line, e.g. `simulator 127.0.0.1:41234` (no credentials). */
  readonly label: string;
  readonly publicUrl: string;
  /** Present when the private side can run. */
  readonly privateSide?: { readonly url: string; readonly rest: RestClientConfig };
  /** Present in simulator mode (for the forced disconnect). */
  readonly simulator?: Simulator;
  /** Releases what was started (the simulator). */
  close(): Promise<void>;
}

/** Starts the simulator, or describes the deployment. */
export async function openEndpoints(target: Target, symbols: readonly string[]): Promise<Endpoints> {
  if (target.kind === 'simulator') {
    const sim = await startSimulator({ symbols });
    return {
      label: `simulator ${new URL(sim.baseUrl).host}`,
      publicUrl: sim.publicStreamUrl,
      privateSide: { url: sim.privateStreamUrl, rest: { baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey } },
      simulator: sim,
      close: () => sim.close(),
    };
  }
  const { publicUrl, privateUrl, restUrl, apiKey, secretKey, apiKeyHeader } = target;
  const privateSide =
    privateUrl !== undefined && restUrl !== undefined && apiKey !== undefined && secretKey !== undefined
      ? { url: privateUrl, rest: { baseUrl: restUrl, apiKey, secretKey, ...(apiKeyHeader !== undefined && { apiKeyHeader }) } }
      : undefined;
  return {
    label: `deployment ${new URL(publicUrl).host}`,
    publicUrl,
    ...(privateSide && { privateSide }),
    close: async () => undefined,
  };
}

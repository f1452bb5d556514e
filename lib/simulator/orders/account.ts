import { formatDecimal, parseDecimal } from '../../decimal/fixed';

/** Free and locked amount of one asset, scaled decimals. @internal */
export interface Balance {
  free: bigint;
  locked: bigint;
}

/** Default starting balances. @internal */
export const DEFAULT_BALANCES: Readonly<Record<string, string>> = { USDT: '100000', BTC: '10', ETH: '100' };

/**
 * Balances of the simulated account, per asset.
 * @internal
 */
export class Account {
  private readonly balances = new Map<string, Balance>();

  constructor(initial: Readonly<Record<string, string>>) {
    for (const [asset, amount] of Object.entries(initial)) this.balances.set(asset, { free: parseDecimal(amount) ?? 0n, locked: 0n });
  }

  of(asset: string): Balance {
    let b = this.balances.get(asset);
    if (b === undefined) {
      b = { free: 0n, locked: 0n };
      this.balances.set(asset, b);
    }
    return b;
  }

  /** Moves `amount` from free to locked; false (nothing moved) when free is short. */
  lock(asset: string, amount: bigint): boolean {
    const b = this.of(asset);
    if (b.free < amount) return false;
    b.free -= amount;
    b.locked += amount;
    return true;
  }

  unlock(asset: string, amount: bigint): void {
    const b = this.of(asset);
    b.locked -= amount;
    b.free += amount;
  }

  /** Removes `amount` from locked (spent in a fill). */
  spendLocked(asset: string, amount: bigint): void {
    this.of(asset).locked -= amount;
  }

  credit(asset: string, amount: bigint): void {
    this.of(asset).free += amount;
  }

  /** Balances as text (`total` = free + locked; the asset name is its id and name), sorted by asset. */
  snapshot(): Array<{
    readonly asset: string;
    readonly assetId: string;
    readonly assetName: string;
    readonly total: string;
    readonly free: string;
    readonly locked: string;
  }> {
    return [...this.balances.keys()].sort().map((asset) => {
      const b = this.of(asset);
      return { asset, assetId: asset, assetName: asset, total: formatDecimal(b.free + b.locked), free: formatDecimal(b.free), locked: formatDecimal(b.locked) };
    });
  }
}

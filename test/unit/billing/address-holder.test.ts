import { describe, expect, it } from "vitest";
import { BLOCK_TIME_TOLERANCE_MS, orderHoldingAddressAt } from "../../../src/billing/address-holder";

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1) + minutes * 60_000);
const hold = (orderId: string, from: number, to: number | null) => ({
  orderId,
  assignedAt: at(from),
  releasedAt: to === null ? null : at(to),
});

// o1 holds the address from minute 0 to 10, then it rests; o2 holds it from minute 100 on.
const HOLDS = [hold("o1", 0, 10), hold("o2", 100, null)];

describe("the order a transfer to a deposit address belongs to", () => {
  it("when the block is inside an order's hold, then that order, however many took the address later", () => {
    expect(orderHoldingAddressAt(HOLDS, at(5))).toBe("o1");
    expect(orderHoldingAddressAt(HOLDS, at(0))).toBe("o1");
    expect(orderHoldingAddressAt(HOLDS, at(100))).toBe("o2");
    expect(orderHoldingAddressAt(HOLDS, at(500))).toBe("o2");
  });

  it("when the block is while the address rests, then the order that held it last (a late payment)", () => {
    expect(orderHoldingAddressAt(HOLDS, at(10))).toBe("o1");
    expect(orderHoldingAddressAt(HOLDS, at(98))).toBe("o1");
  });

  it("when the block's time is a little before an order took the address, then that order", () => {
    const early = new Date(at(100).getTime() - BLOCK_TIME_TOLERANCE_MS);
    expect(orderHoldingAddressAt(HOLDS, early)).toBe("o2");
    expect(orderHoldingAddressAt([hold("o1", 0, null)], new Date(at(0).getTime() - 900))).toBe("o1");
  });

  it("when the address passed on with no rest, then a block inside the first hold stays with the first order", () => {
    const handover = [hold("o1", 0, 10), hold("o2", 10, null)];
    expect(orderHoldingAddressAt(handover, new Date(at(10).getTime() - 1))).toBe("o1");
    expect(orderHoldingAddressAt(handover, at(10))).toBe("o2");
    // Before either took it: the one that took it soonest after the block.
    expect(orderHoldingAddressAt(handover, new Date(at(0).getTime() - 500))).toBe("o1");
  });

  it("when the block is before any order took the address, beyond the tolerance, then no order", () => {
    const early = new Date(at(0).getTime() - BLOCK_TIME_TOLERANCE_MS - 1);
    expect(orderHoldingAddressAt(HOLDS, early)).toBeNull();
    expect(orderHoldingAddressAt([], at(0))).toBeNull();
  });
});

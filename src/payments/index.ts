export { atomicToDecimal, decimalToAtomic } from "./amount";
export { type ChallengeInput, parsePaymentChallenge } from "./challenge";
export { drift } from "./drift";
export { isKnownUsdc, resolveNetwork } from "./networks";
export { type NormalisedAccepts, normaliseAccepts, normaliseRequirement } from "./normalise";
export type { PaymentChallenge, PaymentDrift, PaymentOption } from "./types";

import { z } from "zod";
import { withoutControls } from "../../normalise/text";

/**
 * Zod schemas for the discovery feed. They are deliberately loose (unknown keys kept, most
 * fields `unknown`): the feed aggregates what thousands of sellers declared, and one odd field
 * must cost a warning, not the item. Field-level reading happens in fields.ts.
 */

/** Non-negative integer, also when a feed sends it as a numeric string. */
export const CountSchema = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .regex(/^\d+$/)
    .transform((s) => Number(s)),
]);

export const PaginationSchema = z.looseObject({
  limit: CountSchema,
  offset: CountSchema,
  total: CountSchema,
});

/**
 * Continuation fields of a page that states no total. null (and, read by the caller, "") means
 * the feed says there is no next page; any other type is refused rather than guessed at.
 */
export const ContinuationLinkSchema = z
  .union([z.string(), z.looseObject({ href: z.string() }).transform((link) => link.href)])
  .nullable();
export const ContinuationCursorSchema = z
  .union([
    z.string(),
    z
      .number()
      .int()
      .nonnegative()
      .transform((n) => String(n)),
  ])
  .nullable();
export const HasMoreSchema = z.boolean();

/**
 * The list answer names its array `items`; the search answer of @x402/extensions' Bazaar client
 * names it `resources`. A Go facilitator serialises an empty (nil) list as `null`.
 */
export const FeedPageSchema = z
  .looseObject({
    x402Version: z.unknown().optional(),
    items: z.array(z.unknown()).nullable().optional(),
    resources: z.array(z.unknown()).optional(),
    pagination: z.unknown().optional(),
  })
  .refine((page) => page.items !== undefined || page.resources !== undefined);

/** v2 describes a resource as an object (ResourceInfo); v1 feeds give the URL string. */
export const ResourceInfoSchema = z.looseObject({ url: z.string() });

export const FeedItemSchema = z.looseObject({
  resource: z.union([z.string(), ResourceInfoSchema]).optional(),
  // Some facilitators' feeds name the field `url` instead of `resource`.
  url: z.string().optional(),
  type: z.unknown().optional(),
  x402Version: z.unknown().optional(),
  accepts: z.unknown().optional(),
  lastUpdated: z.unknown().optional(),
  metadata: z.unknown().optional(),
});
export type FeedItem = z.infer<typeof FeedItemSchema>;

/** Text as the catalogue stores it: without control characters (normalise/text.ts), trimmed, not empty. */
export const TextSchema = z.string().transform(withoutControls).pipe(z.string().trim().min(1));
export const TagsSchema = z.array(z.unknown());

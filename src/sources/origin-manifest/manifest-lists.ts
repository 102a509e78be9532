import { isRecord, type Json } from "../bazaar/fields";

/**
 * Where a manifest keeps its resources. The common names come first, in this order; any other
 * field whose name ends in one of them (`paidHttpResources`, `payable_endpoints`,
 * `featuredProducts`, `capability_catalog`, `resource_details`) is a list of resources too. A
 * list named as free (`freeEndpoints`) holds resources that take no payment: it is reported, not
 * listed.
 */
const COMMON_LISTS = ["endpoints", "services", "resources", "routes", "items"] as const;
const LIST_NAME =
  /(endpoints|services|resources|routes|items|apis|products|catalog|(resource|endpoint)_?details)$/i;
const FREE_LIST = /^free/i;

export interface ListField {
  name: string;
  value: unknown;
  free: boolean;
}

/** The list fields of an object, common names first, then the others in document order. */
export function listFieldsOf(object: Json): ListField[] {
  const present = (name: string) => object[name] !== undefined && object[name] !== null;
  const names = [
    ...COMMON_LISTS.filter(present),
    ...Object.keys(object).filter(
      (name) => !(COMMON_LISTS as readonly string[]).includes(name) && LIST_NAME.test(name) && present(name),
    ),
  ];
  return names
    .map((name) => ({ name, value: object[name], free: FREE_LIST.test(name) }))
    .filter(({ name, value }) => (COMMON_LISTS as readonly string[]).includes(name) || isList(value));
}

/** An array, or a map of path (or name) → item. */
export function isList(value: unknown): value is unknown[] | Json {
  return Array.isArray(value) || isRecord(value);
}

/** The nested list of a service that groups resources of its own. */
export function nestedListOf(item: Json): ListField | undefined {
  return listFieldsOf(item).find((field) => !field.free && isList(field.value));
}

/**
 * Applies decorators as if stacked in this order on the property (`@A() @B() x` runs B, then A):
 * class-validator reports a field's failed rules in the order they were applied, so a composite
 * decorator built with it reports them as the decorators it replaces did.
 */
export function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };
}

/**
 * Edge-preserving smoothing's weights: for a pixel whose blurred colour
 * differs from it by `d` (the sum over RGB, 0-765), how far to lean towards
 * the blur: nearly all the way for small differences, hardly at all for
 * differences well above `edgeKeep` (edges the smoothing keeps).
 */
export function smoothingWeights(edgeKeep: number): Float32Array {
  const weights = new Float32Array(766);
  for (let d = 0; d < weights.length; d++)
    weights[d] = (edgeKeep * edgeKeep) / (edgeKeep * edgeKeep + d * d);
  return weights;
}

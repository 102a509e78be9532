-- A third source kind: the manifests origins publish at /.well-known/x402 (src/sources/origin-manifest).
ALTER TYPE "source_kind" ADD VALUE 'origin_manifest';

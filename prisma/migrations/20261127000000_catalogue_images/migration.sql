-- Images of the in-memory catalogue (src/search/catalogue-image.ts): a starting API process reads
-- the newest instead of rebuilding the catalogue from every row, then catches up through the
-- change logs from the image's snapshot.
-- CreateTable
CREATE TABLE "catalogue_images" (
    "id" BIGSERIAL NOT NULL,
    "format" INTEGER NOT NULL,
    "snapshot" TEXT NOT NULL,
    "services" INTEGER NOT NULL,
    "endpoints" INTEGER NOT NULL,
    "pieces" INTEGER[],
    "bytes" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalogue_images_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalogue_image_chunks" (
    "image_id" BIGINT NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "catalogue_image_chunks_pkey" PRIMARY KEY ("image_id","seq")
);

-- CreateIndex
CREATE INDEX "catalogue_images_format_id_idx" ON "catalogue_images"("format", "id");

-- AddForeignKey
ALTER TABLE "catalogue_image_chunks" ADD CONSTRAINT "catalogue_image_chunks_image_id_fkey" FOREIGN KEY ("image_id") REFERENCES "catalogue_images"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The pieces are typed arrays and V8-serialised entries, which pglz barely shrinks (deflate at its
-- fastest took 172 MB of a 100,000-service image to 103 MB in 2.7 s of CPU) while costing the
-- writer and every reader CPU: stored out of line, uncompressed.
ALTER TABLE "catalogue_image_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;

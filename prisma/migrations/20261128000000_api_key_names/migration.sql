-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "name" TEXT;

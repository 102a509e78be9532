-- Issue 21: the typo fallback (src/catalogue/text-search.ts, readWords) compares a misspelt word
-- only with vocabulary words whose length is within its edit budget. Without an index every word
-- of the vocabulary was read for that test: at 100,000 services (104,147 words) a correction
-- took 65-100 ms; with the length index Postgres reads only the words of those lengths, 24-50 ms
-- (`node --import tsx bench/typo-probe.ts`). Not expressible in schema.prisma (an expression index).
CREATE INDEX "search_terms_length_idx" ON "search_terms" (length("term"), "term");

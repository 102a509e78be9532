-- levenshtein() for correcting misspelt query words by edit distance (src/catalogue/text-search.ts):
-- trigram similarity misses one-letter slips in short words ("prce" and "price").
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;

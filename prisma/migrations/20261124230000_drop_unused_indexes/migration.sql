-- The index audit of issue 16: after the whole test suite (63 databases) and the API benchmark
-- (10,000 services, 50,000 endpoints, 500,000 history rows), pg_stat_user_indexes showed no scan
-- of these, and no query in src/ can use them: lists, filters, sorts and text matching moved to
-- each API process's memory (src/search), and misspelt words are matched with levenshtein, which
-- no index serves. Every crawl and probe write paid to maintain them (the GIN ones above all).
-- How to repeat the audit: README, "Index audit".
DROP INDEX "services_category_idx";
DROP INDEX "services_lower_category_idx";
DROP INDEX "services_status_volume_usdc_30d_id_idx";
DROP INDEX "endpoints_last_verified_at_idx";
DROP INDEX "endpoints_method_idx";
DROP INDEX "service_tags_tag_idx";
DROP INDEX "service_search_document_idx";
DROP INDEX "endpoint_search_document_idx";
DROP INDEX "search_terms_term_idx";
DROP INDEX "payment_options_network_idx";
DROP INDEX "payment_options_price_usdc_idx";

import pg from "pg";

/**
 * A synthetic catalogue written with set-based SQL (generate_series), not row by row. Names, tags
 * and URL paths use ~300 API words; descriptions mix them (1 word in 4) with a few thousand
 * made-up filler words, so a query word matches a few percent of services as in a real directory
 * rather than most of them. Draws are skewed (random()^1.5: some words common, some rare);
 * setseed makes every run the same catalogue.
 */

export interface CatalogueSize {
  services: number;
  endpointsPerService: number;
  historyPerService: number;
}

export const BENCH_CATALOGUE: CatalogueSize = {
  services: 10_000,
  endpointsPerService: 5,
  historyPerService: 50,
};

const WORDS = `weather forecast stock quote market price crypto token wallet balance swap exchange rate currency
convert translate text language speech audio transcribe image generate vision caption video summarise document
pdf search web news article sentiment analysis email validate phone address geocode map route traffic flight
hotel travel booking sports score football odds betting lottery random number identity verify fraud risk
credit score loan mortgage insurance health symptom drug medical gene protein chemistry molecule climate carbon
energy solar power grid water air quality pollution earthquake satellite space launch rocket astronomy star
planet domain whois dns ssl certificate screenshot scrape crawl extract html markdown json schema sql database
vector embedding model inference chat completion agent tool code review lint compile deploy container log
metric alert uptime monitor status ping latency benchmark proxy cache storage file upload download backup
archive compress encrypt hash sign signature blockchain ethereum solana bitcoin nft mint contract audit gas
fee transaction block explorer analytics dashboard report chart table csv spreadsheet calendar event ticket
concert movie music lyrics book recipe food nutrition fitness workout sleep weather radar storm wind tide ocean
ship vessel port cargo shipment tracking parcel postal zip code tax invoice payment payout refund subscription
plan usage quota limit real time historical daily hourly batch stream webhook notification sms push`;

const CATEGORIES = `Finance Weather AI Data Crypto Maps Travel Media Security Developer Tools Health Science
Commerce Sports Search Communication Infrastructure Analytics Entertainment Energy`;

const TAGS = `api data realtime ai llm finance crypto defi weather maps geo travel media image audio video
text nlp search security identity compliance devtools monitoring analytics storage blockchain payments
market-data stocks forex news sports health science energy climate shipping logistics ecommerce social
email sms translation ocr vision speech embeddings agents tools scraping pdf charts reports`;

const words = (text: string) => text.split(/\s+/).filter(Boolean);

const SYLLABLES = words(
  "ka lo mi ten bar sul vor ne ri dus pa gen tor mel sa qui ron fi das lu ber nix ta ve sim pol ra dex cor",
);

/**
 * Made-up but pronounceable three-syllable words ("kavorne"): the i-th is the base-30 reading of
 * i × 7919 mod 30³; 7919 is prime to 30³, so the words are distinct.
 */
function fillerWords(count: number): string[] {
  const base = SYLLABLES.length;
  return Array.from({ length: count }, (_, i) => {
    const n = (i * 7919) % base ** 3;
    return `${SYLLABLES[n % base]}${SYLLABLES[Math.floor(n / base) % base]}${SYLLABLES[Math.floor(n / base ** 2)]}`;
  });
}

export async function generateCatalogue(
  databaseUrl: string,
  size: CatalogueSize = BENCH_CATALOGUE,
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // The vocabularies travel as query parameters: in-memory arrays. Kept in a table column they
  // would be TOAST-compressed and decompressed on every single draw.
  const api = words(WORDS);
  const filler = fillerWords(4_000);
  try {
    await client.query("SELECT setseed(0.402)");
    const source = await client.query<{ id: string }>(
      `INSERT INTO sources (id, kind, base_url, updated_at)
       VALUES (gen_random_uuid(), 'html_directory', 'https://directory.bench/', now()) RETURNING id`,
    );
    // pick(a) draws a skewed random element; sentence(api, filler, n) n words, 1 in 4 from api.
    await client.query(`
      CREATE FUNCTION pg_temp.pick(a text[]) RETURNS text LANGUAGE sql VOLATILE AS
      $$ SELECT a[1 + floor(power(random(), 1.5) * array_length(a, 1))::int] $$`);
    await client.query(`
      CREATE FUNCTION pg_temp.sentence(api text[], filler text[], n int) RETURNS text LANGUAGE sql VOLATILE AS
      $$ SELECT string_agg(CASE WHEN random() < 0.25 THEN pg_temp.pick(api) ELSE pg_temp.pick(filler) END, ' ')
         FROM generate_series(1, n) $$`);
    await client.query(
      `INSERT INTO services (id, source_id, detail_url, name, domain, description, category, status,
         first_seen_at, last_seen_at, uptime_30d, avg_response_ms_30d, info_updated_at, volume_usdc_30d,
         tx_count_30d, payer_count_30d, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'https://directory.bench/services/' || i,
         initcap(pg_temp.pick($3)) || ' ' || initcap(pg_temp.pick($3)) || ' API ' || i,
         pg_temp.pick($3) || '-' || i || '.bench.example',
         pg_temp.sentence($3, $4, 10 + i % 10),
         ($5::text[])[1 + floor(random() * array_length($5::text[], 1))::int],
         CASE WHEN i % 20 = 0 THEN 'delisted'::service_status ELSE 'listed'::service_status END,
         now() - (random() * interval '365 days'), now() - (random() * interval '2 days'),
         CASE WHEN i % 50 = 0 THEN NULL ELSE round((85 + random() * 15)::numeric, 2)::float8 END,
         CASE WHEN i % 50 = 1 THEN NULL ELSE round((20 + random() * 1500)::numeric, 1)::float8 END,
         now() - (random() * interval '60 days'),
         CASE WHEN i % 25 = 0 THEN NULL ELSE round((power(random(), 3) * 100000)::numeric, 6) END,
         floor(power(random(), 3) * 50000)::int, floor(power(random(), 3) * 5000)::int, now()
       FROM generate_series(1, $2::int) AS i`,
      [source.rows[0]!.id, size.services, api, filler, words(CATEGORIES)],
    );
    await client.query(
      `INSERT INTO service_tags (service_id, tag)
       SELECT DISTINCT s.id, pg_temp.pick($1) FROM services s, generate_series(1, 3) AS k`,
      [words(TAGS)],
    );
    await client.query(
      `INSERT INTO endpoints (id, service_id, position, method, url, description, updated_at)
       SELECT gen_random_uuid(), s.id, k - 1,
         CASE WHEN random() < 0.6 THEN 'GET' WHEN random() < 0.8 THEN 'POST' ELSE 'PUT' END,
         'https://' || s.domain || '/v1/' || pg_temp.pick($2) || '/' || k,
         pg_temp.sentence($2, $3, 6 + k), now()
       FROM services s, generate_series(1, $1::int) AS k`,
      [size.endpointsPerService, api, filler],
    );
    // Trust verdicts as sweeps leave them: scores spread over 0-100 with the grades they give, one
    // in twenty dead, one in ten slow; a service's are drawn the same way.
    for (const table of ["endpoints", "services"]) {
      await client.query(
        `UPDATE ${table} t SET score = v.score,
           grade = CASE WHEN v.score >= 90 THEN 'A' WHEN v.score >= 80 THEN 'B' WHEN v.score >= 65 THEN 'C'
             WHEN v.score >= 50 THEN 'D' ELSE 'F' END,
           health = CASE WHEN v.draw < 0.05 THEN 'dead' WHEN v.draw < 0.1 THEN 'down'
             WHEN v.draw < 0.2 THEN 'degraded' ELSE 'live' END,
           trust_warnings = CASE WHEN v.draw < 0.05 THEN '{dead}' WHEN v.draw < 0.1 THEN '{down}'
             WHEN v.draw < 0.2 THEN '{slow}' ELSE '{}' END::text[]
         FROM (SELECT id, floor(random() * 101)::int AS score, random() AS draw FROM ${table}) v
         WHERE t.id = v.id`,
      );
    }
    await client.query(
      `INSERT INTO stats_snapshots (service_id, observed_from, observed_to, uptime_30d, avg_response_ms_30d,
         info_updated_at, volume_usdc_30d, tx_count_30d, payer_count_30d, updated_at)
       SELECT s.id, now() - (k * interval '1 day'), now() - ((k - 1) * interval '1 day') - interval '1 second',
         round((85 + random() * 15)::numeric, 2)::float8, round((20 + random() * 1500)::numeric, 1)::float8,
         now() - (k * interval '1 day'), round((random() * 100000)::numeric, 6),
         floor(random() * 50000)::int, floor(random() * 5000)::int, now()
       FROM services s, generate_series(1, $1::int) AS k`,
      [size.historyPerService],
    );
  } finally {
    await client.end();
  }
}

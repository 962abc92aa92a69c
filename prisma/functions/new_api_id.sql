-- An API ID in SQL, the same shape as lib/ids.ts: prefix, 10 characters of millisecond time and
-- 16 random characters, Crockford base32 in lower case.
CREATE OR REPLACE FUNCTION new_api_id(prefix text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := '0123456789abcdefghjkmnpqrstvwxyz';
  t bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
  out text := '';
  r bytea := decode(replace(gen_random_uuid()::text, '-', ''), 'hex');
BEGIN
  FOR i IN 1..10 LOOP
    out := substr(alphabet, (t % 32)::int + 1, 1) || out;
    t := t / 32;
  END LOOP;
  FOR i IN 0..15 LOOP
    out := out || substr(alphabet, (get_byte(r, i) % 32) + 1, 1);
  END LOOP;
  RETURN prefix || '_' || out;
END $$;

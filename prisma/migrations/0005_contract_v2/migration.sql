-- AlterTable
ALTER TABLE "thread_event" ADD COLUMN     "parentExecutionId" TEXT;


-- Failures recorded before they had a time get the time their record was last written, so that
-- every failure has one (a client resumes a retryAfterS countdown from it).
UPDATE "execution"
SET "error" = "error" || jsonb_build_object('occurredAt', to_char(COALESCE("finishedAt", "createdAt"), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
WHERE jsonb_typeof("error") = 'object' AND NOT "error" ? 'occurredAt';

UPDATE "thread_event"
SET "payload" = "payload" || jsonb_build_object('occurredAt', to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
WHERE "type" = 'ErrorEvent' AND NOT "payload" ? 'occurredAt';

UPDATE "message" AS m
SET "parts" = (
  SELECT jsonb_agg(
    CASE
      WHEN part->>'type' = 'error' AND NOT part ? 'occurredAt'
        THEN part || jsonb_build_object('occurredAt', to_char(m."updatedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      WHEN part->>'type' = 'delegation' AND jsonb_typeof(part->'error') = 'object' AND NOT part->'error' ? 'occurredAt'
        THEN jsonb_set(part, '{error,occurredAt}', to_jsonb(to_char(m."updatedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
      ELSE part
    END
    ORDER BY position)
  FROM jsonb_array_elements(m."parts") WITH ORDINALITY AS element(part, position)
)
WHERE jsonb_typeof(m."parts") = 'array'
  AND EXISTS (
    SELECT 1 FROM jsonb_array_elements(m."parts") AS element(part)
    WHERE part->>'type' = 'error' OR (part->>'type' = 'delegation' AND jsonb_typeof(part->'error') = 'object')
  );

-- A reply is written again and again while it streams (the text flushes): its search words were
-- computed anew on each write, three configurations of a growing text and a GIN entry each time,
-- for a text no one searches before it ends. "streaming" is true from the reply's first flush to
-- its settlement (src/storage/run-statements.ts, settlement-statements.ts): meanwhile the message
-- has no search words, and the settlement's write computes them once.
ALTER TABLE "message" ADD COLUMN "streaming" BOOLEAN NOT NULL DEFAULT false;

DROP INDEX "message_searchVector_idx";

ALTER TABLE "message" DROP COLUMN "searchVector";

ALTER TABLE "message" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (
  CASE WHEN "streaming" THEN NULL ELSE
    to_tsvector('simple'::regconfig, "parley_search_text"("parts"))
    || to_tsvector('english'::regconfig, "parley_search_text"("parts"))
    || to_tsvector('german'::regconfig, "parley_search_text"("parts"))
  END
) STORED;

CREATE INDEX "message_searchVector_idx" ON "message" USING GIN ("searchVector");

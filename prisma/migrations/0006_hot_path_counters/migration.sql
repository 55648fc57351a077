-- AlterTable
ALTER TABLE "thread" ADD COLUMN     "queueTailPosition" INTEGER NOT NULL DEFAULT 0;


-- The enqueue is one statement: the tail position comes from the thread row it locks, so it is
-- never read from a snapshot older than the lock. It starts above every message already queued.
UPDATE "thread" AS t
SET "queueTailPosition" = q."tail"
FROM (SELECT "threadId", max("position") AS "tail" FROM "queue_item" GROUP BY "threadId") AS q
WHERE q."threadId" = t."id" AND q."tail" > 0;

-- A message's idempotency key is unique per thread for as long as its MessageQueued event exists
-- (also after the message started and its queue item is gone): a second send with the key fails
-- here, whatever snapshot it read, and is answered with the first one's event.
CREATE UNIQUE INDEX "thread_event_message_idempotency_key" ON "thread_event" ("threadId", ("payload"->>'idempotencyKey'))
  WHERE "type" = 'MessageQueued' AND "payload"->>'idempotencyKey' IS NOT NULL;

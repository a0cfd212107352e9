-- The problem bank's reads (src/problems/bank/list.ts, decision 064): live problems newest first and by title, and the public problems' counts per difficulty from the index alone.
CREATE INDEX `problems_bank_newest_idx` ON `problems` (`created_at`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `problems_bank_title_idx` ON `problems` (title COLLATE NOCASE,created_at DESC,id DESC) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `problems_bank_public_idx` ON `problems` (`course_id`,`staged_at`,`difficulty`,`id`) WHERE deleted_at IS NULL;
-- Every write to a user's status rows (every verdict and rejudge: src/problems/bank/status.ts
-- rewrites the row; the account erasure deletes them) bumps that user's progress version, so the
-- progress page can keep a user's rows in memory and check them with one primary-key read
-- (src/progress/memory.ts, docs/decisions/083-bank-sight-in-memory.md).
CREATE TABLE `progress_versions` (
	`user_id` text PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `user_problem_status_progress_insert` AFTER INSERT ON `user_problem_status`
BEGIN INSERT INTO `progress_versions` (`user_id`, `version`) VALUES (NEW.`user_id`, 1) ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `user_problem_status_progress_update` AFTER UPDATE ON `user_problem_status`
BEGIN INSERT INTO `progress_versions` (`user_id`, `version`) VALUES (NEW.`user_id`, 1) ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `user_problem_status_progress_delete` AFTER DELETE ON `user_problem_status`
BEGIN INSERT INTO `progress_versions` (`user_id`, `version`) VALUES (OLD.`user_id`, 1) ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;

CREATE INDEX `submissions_queue_idx` ON `submissions` (`status`,`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `submissions_user_claimed_idx` ON `submissions` (`user_id`,`claimed_at`);
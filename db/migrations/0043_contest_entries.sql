CREATE TABLE `contest_entries` (
	`contest_id` text NOT NULL,
	`user_id` text NOT NULL,
	`entered_at` integer NOT NULL,
	`ip` text,
	`session_id` text,
	PRIMARY KEY(`contest_id`, `user_id`),
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contest_entries_user_idx` ON `contest_entries` (`user_id`);--> statement-breakpoint
ALTER TABLE `contests` ADD `proctor_password_hash` text;--> statement-breakpoint
ALTER TABLE `contests` ADD `one_session` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `contests` ADD `lock_down` integer DEFAULT false NOT NULL;
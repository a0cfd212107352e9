CREATE TABLE `late_day_spends` (
	`assignment_id` text NOT NULL,
	`user_id` text NOT NULL,
	`days` integer NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`assignment_id`, `user_id`),
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `late_day_spends_user_idx` ON `late_day_spends` (`user_id`);--> statement-breakpoint
ALTER TABLE `assignment_problems` ADD `slot` integer;--> statement-breakpoint
ALTER TABLE `courses` ADD `late_days` integer DEFAULT 0 NOT NULL;
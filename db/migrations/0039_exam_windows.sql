CREATE TABLE `exam_access_log` (
	`id` text PRIMARY KEY NOT NULL,
	`assignment_id` text,
	`contest_id` text,
	`user_id` text,
	`at` integer NOT NULL,
	`ip` text,
	`event` text NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `exam_access_log_assignment_idx` ON `exam_access_log` (`assignment_id`,`at`);--> statement-breakpoint
CREATE INDEX `exam_access_log_contest_idx` ON `exam_access_log` (`contest_id`,`at`);--> statement-breakpoint
CREATE TABLE `exam_starts` (
	`assignment_id` text NOT NULL,
	`user_id` text NOT NULL,
	`started_at` integer NOT NULL,
	`ip` text,
	`session_id` text,
	PRIMARY KEY(`assignment_id`, `user_id`),
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `exam_starts_user_idx` ON `exam_starts` (`user_id`);--> statement-breakpoint
ALTER TABLE `assignments` ADD `time_limit_minutes` integer;--> statement-breakpoint
ALTER TABLE `assignments` ADD `access_cidrs` text;--> statement-breakpoint
ALTER TABLE `assignments` ADD `seb_config_keys` text;--> statement-breakpoint
ALTER TABLE `assignments` ADD `proctor_password_hash` text;--> statement-breakpoint
ALTER TABLE `assignments` ADD `one_session` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `assignments` ADD `lock_down` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `contests` ADD `access_cidrs` text;--> statement-breakpoint
ALTER TABLE `contests` ADD `seb_config_keys` text;--> statement-breakpoint
ALTER TABLE `course_members` ADD `extra_time_percent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `course_members` ADD `extra_minutes` integer DEFAULT 0 NOT NULL;
CREATE TABLE `similarity_marks` (
	`scope_kind` text NOT NULL,
	`scope_id` text NOT NULL,
	`left_submission_id` text NOT NULL,
	`right_submission_id` text NOT NULL,
	`status` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`report_id` text,
	`marked_by` text,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`scope_kind`, `scope_id`, `left_submission_id`, `right_submission_id`),
	FOREIGN KEY (`marked_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `similarity_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`scope_kind` text NOT NULL,
	`scope_id` text NOT NULL,
	`problem_id` text,
	`options` text NOT NULL,
	`set_key` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`progress` real DEFAULT 0 NOT NULL,
	`error` text,
	`result` text,
	`created_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `similarity_reports_scope_idx` ON `similarity_reports` (`scope_kind`,`scope_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `similarity_reports_key_idx` ON `similarity_reports` (`set_key`);--> statement-breakpoint
CREATE TABLE `submission_pastes` (
	`submission_id` text PRIMARY KEY NOT NULL,
	`events` text NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `courses` ADD `record_pastes` integer DEFAULT false NOT NULL;
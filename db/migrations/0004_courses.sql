CREATE TABLE `assignment_problems` (
	`assignment_id` text NOT NULL,
	`problem_id` text NOT NULL,
	`points` real DEFAULT 100 NOT NULL,
	`ordinal` integer NOT NULL,
	PRIMARY KEY(`assignment_id`, `problem_id`),
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `assignment_problems_problem_idx` ON `assignment_problems` (`problem_id`);--> statement-breakpoint
CREATE TABLE `assignment_scores` (
	`assignment_id` text NOT NULL,
	`user_id` text NOT NULL,
	`problem_id` text NOT NULL,
	`score` real DEFAULT 0 NOT NULL,
	`best_submission_id` text,
	`best_verdict` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`late` integer DEFAULT false NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`assignment_id`, `user_id`, `problem_id`),
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `assignment_scores_version_idx` ON `assignment_scores` (`assignment_id`,`version`);--> statement-breakpoint
CREATE TABLE `assignments` (
	`id` text PRIMARY KEY NOT NULL,
	`course_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`opens_at` integer NOT NULL,
	`due_at` integer,
	`closes_at` integer,
	`late_penalty_percent` real DEFAULT 0 NOT NULL,
	`late_penalty_unit` text DEFAULT 'day' NOT NULL,
	`scoring` text DEFAULT 'all-or-nothing' NOT NULL,
	`feedback` text NOT NULL,
	`feedback_after_close` text,
	`ai_policy` text DEFAULT 'full' NOT NULL,
	`scores_version` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `assignments_course_idx` ON `assignments` (`course_id`);--> statement-breakpoint
CREATE TABLE `course_invites` (
	`course_id` text NOT NULL,
	`email_normalized` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`role` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`course_id`, `email_normalized`),
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `course_invites_email_idx` ON `course_invites` (`email_normalized`);--> statement-breakpoint
CREATE TABLE `course_members` (
	`course_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`course_id`, `user_id`),
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `course_members_user_idx` ON `course_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `courses` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`code` text NOT NULL,
	`code_normalized` text NOT NULL,
	`term` text DEFAULT '' NOT NULL,
	`invite_code` text,
	`created_by` text NOT NULL,
	`archived_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `courses_code_uq` ON `courses` (`code_normalized`);--> statement-breakpoint
CREATE UNIQUE INDEX `courses_invite_uq` ON `courses` (`invite_code`);--> statement-breakpoint
CREATE TABLE `extensions` (
	`assignment_id` text NOT NULL,
	`user_id` text NOT NULL,
	`due_at` integer NOT NULL,
	`closes_at` integer,
	`granted_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`assignment_id`, `user_id`),
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`granted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `submission_failures` (
	`submission_id` text PRIMARY KEY NOT NULL,
	`test_index` integer NOT NULL,
	`input` text NOT NULL,
	`expected_output` text NOT NULL,
	`actual_output` text NOT NULL,
	`stderr` text NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `problems` ADD `course_id` text REFERENCES courses(id);--> statement-breakpoint
CREATE INDEX `problems_course_idx` ON `problems` (`course_id`);--> statement-breakpoint
ALTER TABLE `submissions` ADD `assignment_id` text REFERENCES assignments(id);--> statement-breakpoint
ALTER TABLE `submissions` ADD `run_all_tests` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `hidden_passed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `hidden_total` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `previous_verdict` text;--> statement-breakpoint
CREATE INDEX `submissions_assignment_idx` ON `submissions` (`assignment_id`,`user_id`,`problem_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `site_role` text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `can_create_courses` integer DEFAULT false NOT NULL;
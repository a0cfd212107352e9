CREATE TABLE `comment_bank` (
	`id` text PRIMARY KEY NOT NULL,
	`course_id` text NOT NULL,
	`text` text NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `comment_bank_course_idx` ON `comment_bank` (`course_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `regrade_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`submission_id` text NOT NULL,
	`assignment_id` text NOT NULL,
	`course_id` text NOT NULL,
	`user_id` text NOT NULL,
	`reason` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`answer` text,
	`points` real,
	`answered_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`answered_at` integer,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`answered_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `regrade_requests_queue_idx` ON `regrade_requests` (`course_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `regrade_requests_submission_idx` ON `regrade_requests` (`submission_id`);--> statement-breakpoint
CREATE TABLE `rubric_items` (
	`id` text PRIMARY KEY NOT NULL,
	`assignment_id` text NOT NULL,
	`problem_id` text NOT NULL,
	`ordinal` integer NOT NULL,
	`points` real NOT NULL,
	`description` text NOT NULL,
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `rubric_items_problem_idx` ON `rubric_items` (`assignment_id`,`problem_id`,`ordinal`);--> statement-breakpoint
CREATE TABLE `rubrics` (
	`assignment_id` text NOT NULL,
	`problem_id` text NOT NULL,
	`mode` text DEFAULT 'add' NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`assignment_id`, `problem_id`),
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `submission_reviews` (
	`submission_id` text PRIMARY KEY NOT NULL,
	`assignment_id` text NOT NULL,
	`problem_id` text NOT NULL,
	`user_id` text NOT NULL,
	`reviewer_id` text,
	`item_ids` text NOT NULL,
	`comments` text NOT NULL,
	`override_points` real,
	`released_at` integer,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reviewer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `submission_reviews_cell_idx` ON `submission_reviews` (`assignment_id`,`user_id`,`problem_id`);
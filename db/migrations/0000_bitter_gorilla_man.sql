CREATE TABLE `ai_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ai_requests_user_idx` ON `ai_requests` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `ai_reviews` (
	`cache_key` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`review` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `contact_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`message` text NOT NULL,
	`user_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `problems` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`input_format` text NOT NULL,
	`output_format` text NOT NULL,
	`constraints` text NOT NULL,
	`sample_input` text NOT NULL,
	`sample_output` text NOT NULL,
	`difficulty` text NOT NULL,
	`user_id` text NOT NULL,
	`time_limit_ms` integer DEFAULT 2000 NOT NULL,
	`memory_limit_kib` integer DEFAULT 262144 NOT NULL,
	`checker` text DEFAULT 'lines' NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `problems_difficulty_idx` ON `problems` (`difficulty`);--> statement-breakpoint
CREATE INDEX `problems_user_idx` ON `problems` (`user_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `submission_tests` (
	`submission_id` text NOT NULL,
	`index` integer NOT NULL,
	`is_sample` integer NOT NULL,
	`verdict` text NOT NULL,
	`time_ms` integer NOT NULL,
	`memory_kib` integer NOT NULL,
	PRIMARY KEY(`submission_id`, `index`),
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`problem_id` text NOT NULL,
	`language` text NOT NULL,
	`code` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`verdict` text,
	`is_passed` integer DEFAULT false NOT NULL,
	`output` text DEFAULT '' NOT NULL,
	`expected_output` text DEFAULT '' NOT NULL,
	`compile_output` text,
	`error_detail` text,
	`time_ms` integer,
	`memory_kib` integer,
	`tests_passed` integer DEFAULT 0 NOT NULL,
	`tests_total` integer DEFAULT 0 NOT NULL,
	`lease_owner` text,
	`lease_expires_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`judged_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `submissions_user_problem_idx` ON `submissions` (`user_id`,`problem_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `submissions_status_idx` ON `submissions` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `test_cases` (
	`id` text PRIMARY KEY NOT NULL,
	`problem_id` text NOT NULL,
	`ordinal` integer NOT NULL,
	`input` text NOT NULL,
	`expected_output` text NOT NULL,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `test_cases_problem_ordinal_uq` ON `test_cases` (`problem_id`,`ordinal`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email` text NOT NULL,
	`email_normalized` text NOT NULL,
	`password_hash` text,
	`is_system` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_normalized_uq` ON `users` (`email_normalized`);
CREATE TABLE `lti_contexts` (
	`id` text PRIMARY KEY NOT NULL,
	`platform_id` text NOT NULL,
	`deployment_id` text NOT NULL,
	`context_id` text NOT NULL,
	`course_id` text NOT NULL,
	`memberships_url` text,
	`roster_synced_at` integer,
	FOREIGN KEY (`platform_id`) REFERENCES `lti_platforms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_contexts_platform_context_uq` ON `lti_contexts` (`platform_id`,`context_id`);--> statement-breakpoint
CREATE TABLE `lti_deep_links` (
	`id` text PRIMARY KEY NOT NULL,
	`platform_id` text NOT NULL,
	`deployment_id` text NOT NULL,
	`course_id` text NOT NULL,
	`user_id` text NOT NULL,
	`return_url` text NOT NULL,
	`data` text,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`platform_id`) REFERENCES `lti_platforms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `lti_deployments` (
	`platform_id` text NOT NULL,
	`deployment_id` text NOT NULL,
	PRIMARY KEY(`platform_id`, `deployment_id`),
	FOREIGN KEY (`platform_id`) REFERENCES `lti_platforms`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `lti_flows` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`platform_id` text NOT NULL,
	`nonce` text NOT NULL,
	`login_params` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`platform_id`) REFERENCES `lti_platforms`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `lti_grade_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`resource_link_row_id` text NOT NULL,
	`user_id` text NOT NULL,
	`lti_user_id` text NOT NULL,
	`score_given` real NOT NULL,
	`score_maximum` real NOT NULL,
	`scored_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`sent_at` integer,
	FOREIGN KEY (`resource_link_row_id`) REFERENCES `lti_resource_links`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_grade_outbox_link_user_uq` ON `lti_grade_outbox` (`resource_link_row_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `lti_grade_outbox_due_idx` ON `lti_grade_outbox` (`sent_at`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `lti_keys` (
	`kid` text PRIMARY KEY NOT NULL,
	`private_jwk` text NOT NULL,
	`public_jwk` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`retired_at` integer
);
--> statement-breakpoint
CREATE TABLE `lti_platforms` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`issuer` text NOT NULL,
	`client_id` text NOT NULL,
	`auth_url` text NOT NULL,
	`token_url` text NOT NULL,
	`jwks_url` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_platforms_issuer_client_uq` ON `lti_platforms` (`issuer`,`client_id`);--> statement-breakpoint
CREATE TABLE `lti_resource_links` (
	`id` text PRIMARY KEY NOT NULL,
	`platform_id` text NOT NULL,
	`context_row_id` text NOT NULL,
	`resource_link_id` text NOT NULL,
	`assignment_id` text,
	`problem_id` text,
	`line_item_url` text,
	`synced_version` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`platform_id`) REFERENCES `lti_platforms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`context_row_id`) REFERENCES `lti_contexts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_resource_links_platform_link_uq` ON `lti_resource_links` (`platform_id`,`resource_link_id`);
CREATE TABLE `judge_hosts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`revoked_at` integer,
	`last_seen_at` integer,
	`version` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `judge_hosts_name_unique` ON `judge_hosts` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `judge_hosts_token_hash_unique` ON `judge_hosts` (`token_hash`);
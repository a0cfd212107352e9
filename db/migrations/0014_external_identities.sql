CREATE TABLE `external_identities` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`issuer` text NOT NULL,
	`subject` text NOT NULL,
	`email` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_sign_in_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `external_identities_issuer_subject_uq` ON `external_identities` (`issuer`,`subject`);--> statement-breakpoint
CREATE INDEX `external_identities_user_idx` ON `external_identities` (`user_id`);--> statement-breakpoint
CREATE TABLE `sso_flows` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`nonce` text NOT NULL,
	`code_verifier` text NOT NULL,
	`link_user_id` text,
	`return_to` text,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`link_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);

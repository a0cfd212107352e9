ALTER TABLE `problems` ADD `interactive` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `problems` ADD `validation_passes` integer DEFAULT 1 NOT NULL;
ALTER TABLE `problems` ADD `scoring` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `score` real;--> statement-breakpoint
ALTER TABLE `submissions` ADD `max_score` real;--> statement-breakpoint
ALTER TABLE `submissions` ADD `group_results` text;
-- Every write that can change which course-private problems a viewer sees in the
-- bank (src/problems/bank/visible.ts and the contests' grant) bumps
-- revisions('sight'), so each viewer's sight can be kept in memory and checked
-- with the one statement a bank request already reads
-- (docs/decisions/083-bank-sight-in-memory.md). The clock's part (an assignment
-- opening, a contest or a virtual window starting, a contest ending) bumps
-- nothing: the memory keeps each sight only until the next such time.
-- Updates count only for the columns the rules read (a contest's feed phase or
-- an assignment's scores version moves often and changes no one's sight).
INSERT INTO `revisions` (`name`, `value`) VALUES ('sight', 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `course_members_sight_insert` AFTER INSERT ON `course_members`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `course_members_sight_update` AFTER UPDATE OF `course_id`, `user_id`, `role` ON `course_members`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `course_members_sight_delete` AFTER DELETE ON `course_members`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `assignments_sight_insert` AFTER INSERT ON `assignments`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `assignments_sight_update` AFTER UPDATE OF `course_id`, `opens_at`, `deleted_at` ON `assignments`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `assignments_sight_delete` AFTER DELETE ON `assignments`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `assignment_problems_sight_insert` AFTER INSERT ON `assignment_problems`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `assignment_problems_sight_update` AFTER UPDATE OF `assignment_id`, `problem_id`, `slot`, `ordinal` ON `assignment_problems`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `assignment_problems_sight_delete` AFTER DELETE ON `assignment_problems`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `problems_sight_insert` AFTER INSERT ON `problems`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `problems_sight_update` AFTER UPDATE OF `course_id`, `deleted_at`, `staged_at` ON `problems`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `problems_sight_delete` AFTER DELETE ON `problems`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contests_sight_insert` AFTER INSERT ON `contests`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contests_sight_update` AFTER UPDATE OF `starts_at`, `duration_minutes`, `course_id`, `created_by`, `deleted_at`, `proctor_password_hash`, `one_session`, `lock_down` ON `contests`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contests_sight_delete` AFTER DELETE ON `contests`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_problems_sight_insert` AFTER INSERT ON `contest_problems`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_problems_sight_update` AFTER UPDATE OF `contest_id`, `problem_id` ON `contest_problems`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_problems_sight_delete` AFTER DELETE ON `contest_problems`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_teams_sight_insert` AFTER INSERT ON `contest_teams`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_teams_sight_update` AFTER UPDATE OF `contest_id`, `virtual_starts_at` ON `contest_teams`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_teams_sight_delete` AFTER DELETE ON `contest_teams`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_team_members_sight_insert` AFTER INSERT ON `contest_team_members`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_team_members_sight_update` AFTER UPDATE OF `contest_id`, `team_id`, `user_id` ON `contest_team_members`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_team_members_sight_delete` AFTER DELETE ON `contest_team_members`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_roles_sight_insert` AFTER INSERT ON `contest_roles`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_roles_sight_update` AFTER UPDATE OF `contest_id`, `user_id`, `role` ON `contest_roles`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_roles_sight_delete` AFTER DELETE ON `contest_roles`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_entries_sight_insert` AFTER INSERT ON `contest_entries`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_entries_sight_update` AFTER UPDATE OF `contest_id`, `user_id` ON `contest_entries`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `contest_entries_sight_delete` AFTER DELETE ON `contest_entries`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'sight'; END;

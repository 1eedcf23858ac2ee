PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_daily_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`type` text NOT NULL,
	`target` integer DEFAULT 1 NOT NULL,
	`reward` integer DEFAULT 10 NOT NULL,
	`active_date` text NOT NULL,
	`expires_at` integer NOT NULL,
	`rarity` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "daily_challenges_type_check" CHECK(type in ('identify_pins', 'find_rarity', 'add_to_collection', 'marketplace_activity')),
	CONSTRAINT "daily_challenges_rarity_check" CHECK(rarity is null or rarity in ('common', 'uncommon', 'rare', 'ultra_rare'))
);
--> statement-breakpoint
INSERT INTO `__new_daily_challenges`("id", "name", "description", "type", "target", "reward", "active_date", "expires_at", "rarity", "created_at") SELECT "id", "name", "description", "type", "target", "reward", "active_date", "expires_at", NULL, "created_at" FROM `daily_challenges`;--> statement-breakpoint
DROP TABLE `daily_challenges`;--> statement-breakpoint
ALTER TABLE `__new_daily_challenges` RENAME TO `daily_challenges`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `daily_challenges_day_type_unique` ON `daily_challenges` (`active_date`,`type`);--> statement-breakpoint
DROP INDEX `identifications_user_idx`;--> statement-breakpoint
CREATE INDEX `identifications_user_idx` ON `identifications` (`user_id`,`created_at`);
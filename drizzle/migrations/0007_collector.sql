CREATE TABLE `password_reset_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_reset_tokens_hash_unique` ON `password_reset_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `password_reset_tokens_user_idx` ON `password_reset_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `pin_suggestions` (
	`id` text PRIMARY KEY NOT NULL,
	`suggested_by` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`organization_name` text NOT NULL,
	`team_id` text,
	`total_quantity` integer DEFAULT 100 NOT NULL,
	`year` integer,
	`event` text,
	`images` text DEFAULT '[]' NOT NULL,
	`identification_id` text,
	`reviewed_by` text,
	`reviewed_at` integer,
	`reject_reason` text,
	`pin_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`suggested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`identification_id`) REFERENCES `identifications`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`pin_id`) REFERENCES `pins`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "pin_suggestions_status_check" CHECK(status in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE INDEX `pin_suggestions_status_idx` ON `pin_suggestions` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `pin_suggestions_user_idx` ON `pin_suggestions` (`suggested_by`,`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `deleted_at` integer;
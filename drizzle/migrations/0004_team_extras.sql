CREATE TABLE `team_invites` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`roster_id` text NOT NULL,
	`token` text NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`accepted_at` integer,
	`accepted_by` text,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`roster_id`) REFERENCES `rosters`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`accepted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `team_invites_token_unique` ON `team_invites` (`token`);--> statement-breakpoint
CREATE INDEX `team_invites_team_idx` ON `team_invites` (`team_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `team_pin_allocations` (
	`order_id` text NOT NULL,
	`roster_id` text NOT NULL,
	`quantity` integer NOT NULL,
	PRIMARY KEY(`order_id`, `roster_id`),
	FOREIGN KEY (`order_id`) REFERENCES `team_pin_orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`roster_id`) REFERENCES `rosters`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "team_pin_allocations_quantity_check" CHECK(quantity >= 0)
);
--> statement-breakpoint
CREATE TABLE `team_pin_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`pin_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`updated_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pin_id`) REFERENCES `pins`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "team_pin_orders_quantity_check" CHECK(quantity >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `team_pin_orders_team_pin_unique` ON `team_pin_orders` (`team_id`,`pin_id`);
CREATE TABLE `achievements` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`icon_url` text,
	`category` text NOT NULL,
	`condition` text NOT NULL,
	`points` integer DEFAULT 10 NOT NULL,
	`is_hidden` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "achievements_category_check" CHECK(category in ('identification', 'collection', 'social', 'marketplace', 'special'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `achievements_key_unique` ON `achievements` (`key`);--> statement-breakpoint
CREATE TABLE `audit_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text,
	`details` text,
	`timestamp` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_logs_time_idx` ON `audit_logs` (`timestamp`);--> statement-breakpoint
CREATE INDEX `audit_logs_user_idx` ON `audit_logs` (`user_id`);--> statement-breakpoint
CREATE INDEX `audit_logs_target_idx` ON `audit_logs` (`target_type`,`target_id`);--> statement-breakpoint
CREATE TABLE `daily_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`type` text NOT NULL,
	`target` integer DEFAULT 1 NOT NULL,
	`reward` integer DEFAULT 10 NOT NULL,
	`active_date` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "daily_challenges_type_check" CHECK(type in ('identify_pins', 'find_rarity', 'add_to_collection', 'marketplace_activity'))
);
--> statement-breakpoint
CREATE INDEX `daily_challenges_active_idx` ON `daily_challenges` (`active_date`);--> statement-breakpoint
CREATE TABLE `identifications` (
	`id` text PRIMARY KEY NOT NULL,
	`pin_id` text,
	`user_id` text,
	`image_data` text,
	`confidence` integer DEFAULT 0 NOT NULL,
	`identification_data` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`pin_id`) REFERENCES `pins`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `identifications_created_idx` ON `identifications` (`created_at`);--> statement-breakpoint
CREATE INDEX `identifications_pin_idx` ON `identifications` (`pin_id`);--> statement-breakpoint
CREATE INDEX `identifications_user_idx` ON `identifications` (`user_id`);--> statement-breakpoint
CREATE TABLE `image_features` (
	`image_id` text PRIMARY KEY NOT NULL,
	`engine` text NOT NULL,
	`features` blob NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`image_id`) REFERENCES `images`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `image_variants` (
	`image_id` text NOT NULL,
	`variant` text NOT NULL,
	`format` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`bytes` blob NOT NULL,
	PRIMARY KEY(`image_id`, `variant`, `format`),
	FOREIGN KEY (`image_id`) REFERENCES `images`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "image_variants_variant_check" CHECK(variant in ('thumb', 'full')),
	CONSTRAINT "image_variants_format_check" CHECK(format in ('webp', 'jpeg'))
);
--> statement-breakpoint
CREATE TABLE `images` (
	`id` text PRIMARY KEY NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`bytes` blob NOT NULL,
	`byte_size` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `marketplace_pins` (
	`id` text PRIMARY KEY NOT NULL,
	`vendor_id` text NOT NULL,
	`pin_id` text,
	`name` text NOT NULL,
	`description` text,
	`price_cents` integer NOT NULL,
	`stock_quantity` integer DEFAULT 0 NOT NULL,
	`images` text DEFAULT '[]' NOT NULL,
	`category` text,
	`tags` text,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pin_id`) REFERENCES `pins`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "marketplace_pins_price_check" CHECK(price_cents >= 0 and price_cents < 10000000000),
	CONSTRAINT "marketplace_pins_stock_check" CHECK(stock_quantity >= 0)
);
--> statement-breakpoint
CREATE INDEX `marketplace_pins_vendor_idx` ON `marketplace_pins` (`vendor_id`);--> statement-breakpoint
CREATE INDEX `marketplace_pins_active_idx` ON `marketplace_pins` (`is_active`,`created_at`);--> statement-breakpoint
CREATE INDEX `marketplace_pins_category_idx` ON `marketplace_pins` (`category`);--> statement-breakpoint
CREATE TABLE `oauth_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`provider_user_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_provider_user_unique` ON `oauth_connections` (`provider`,`provider_user_id`);--> statement-breakpoint
CREATE INDEX `oauth_user_idx` ON `oauth_connections` (`user_id`);--> statement-breakpoint
CREATE TABLE `order_items` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`marketplace_pin_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`unit_price_cents` integer NOT NULL,
	`total_price_cents` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`marketplace_pin_id`) REFERENCES `marketplace_pins`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "order_items_quantity_check" CHECK(quantity >= 1)
);
--> statement-breakpoint
CREATE INDEX `order_items_order_idx` ON `order_items` (`order_id`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`vendor_id` text NOT NULL,
	`total_amount_cents` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`stripe_payment_intent_id` text,
	`shipping_address` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "orders_status_check" CHECK(status in ('pending', 'paid', 'processing', 'shipped', 'delivered', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX `orders_user_idx` ON `orders` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_vendor_idx` ON `orders` (`vendor_id`,`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_name_unique` ON `organizations` (lower("name"));--> statement-breakpoint
CREATE TABLE `passwords` (
	`user_id` text PRIMARY KEY NOT NULL,
	`hash` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `pin_collections` (
	`id` text PRIMARY KEY NOT NULL,
	`player_id` text NOT NULL,
	`pin_id` text NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`acquired_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`tradeable` integer DEFAULT true NOT NULL,
	`notes` text,
	FOREIGN KEY (`player_id`) REFERENCES `rosters`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pin_id`) REFERENCES `pins`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "pin_collections_quantity_check" CHECK(quantity >= 1)
);
--> statement-breakpoint
CREATE INDEX `pin_collections_player_idx` ON `pin_collections` (`player_id`);--> statement-breakpoint
CREATE INDEX `pin_collections_pin_idx` ON `pin_collections` (`pin_id`);--> statement-breakpoint
CREATE TABLE `pin_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`pin_id` text NOT NULL,
	`user_id` text NOT NULL,
	`content` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`pin_id`) REFERENCES `pins`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `pin_comments_pin_idx` ON `pin_comments` (`pin_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `pin_reactions` (
	`id` text PRIMARY KEY NOT NULL,
	`pin_id` text NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`pin_id`) REFERENCES `pins`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "pin_reactions_type_check" CHECK(type in ('like', 'favorite', 'want'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pin_reactions_unique` ON `pin_reactions` (`pin_id`,`user_id`,`type`);--> statement-breakpoint
CREATE TABLE `pins` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`organization_id` text NOT NULL,
	`team_id` text,
	`created_by` text,
	`total_quantity` integer DEFAULT 100 NOT NULL,
	`available_quantity` integer DEFAULT 0 NOT NULL,
	`distribution_date` text,
	`images` text DEFAULT '[]' NOT NULL,
	`primary_photo_index` integer DEFAULT 0 NOT NULL,
	`year` integer,
	`event` text,
	`rarity` text DEFAULT 'common' NOT NULL,
	`rarity_score` integer DEFAULT 1 NOT NULL,
	`rarity_locked` integer DEFAULT false NOT NULL,
	`identification_count` integer DEFAULT 0 NOT NULL,
	`estimated_value_cents` integer,
	`is_featured` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "pins_rarity_check" CHECK(rarity in ('common', 'uncommon', 'rare', 'ultra_rare')),
	CONSTRAINT "pins_rarity_score_check" CHECK(rarity_score between 0 and 4),
	CONSTRAINT "pins_total_quantity_check" CHECK(total_quantity >= 1),
	CONSTRAINT "pins_available_quantity_check" CHECK(available_quantity >= 0)
);
--> statement-breakpoint
CREATE INDEX `pins_created_idx` ON `pins` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `pins_rarity_idx` ON `pins` (`rarity_score`,`created_at`);--> statement-breakpoint
CREATE INDEX `pins_value_idx` ON `pins` (`estimated_value_cents`);--> statement-breakpoint
CREATE INDEX `pins_org_idx` ON `pins` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `pins_team_idx` ON `pins` (`team_id`);--> statement-breakpoint
CREATE INDEX `pins_creator_idx` ON `pins` (`created_by`);--> statement-breakpoint
CREATE INDEX `pins_featured_idx` ON `pins` (`is_featured`);--> statement-breakpoint
CREATE INDEX `pins_name_idx` ON `pins` (`name`);--> statement-breakpoint
CREATE TABLE `rosters` (
	`id` text PRIMARY KEY NOT NULL,
	`player_id` text,
	`player_name` text NOT NULL,
	`team_id` text NOT NULL,
	`position` text,
	`jersey_number` text,
	`is_active` integer DEFAULT true NOT NULL,
	`joined_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`player_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rosters_team_idx` ON `rosters` (`team_id`);--> statement-breakpoint
CREATE INDEX `rosters_player_idx` ON `rosters` (`player_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`sid` text PRIMARY KEY NOT NULL,
	`sess` text NOT NULL,
	`expire` integer NOT NULL,
	`user_id` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_expire_idx` ON `sessions` (`expire`);--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `staff` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`name` text NOT NULL,
	`team_id` text NOT NULL,
	`role` text DEFAULT 'assistant_coach' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`joined_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "staff_role_check" CHECK(role in ('manager', 'assistant_coach'))
);
--> statement-breakpoint
CREATE INDEX `staff_team_idx` ON `staff` (`team_id`);--> statement-breakpoint
CREATE INDEX `staff_user_idx` ON `staff` (`user_id`);--> statement-breakpoint
CREATE TABLE `teams` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`location` text,
	`manager_id` text,
	`logo_url` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`manager_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `teams_manager_idx` ON `teams` (`manager_id`);--> statement-breakpoint
CREATE INDEX `teams_name_idx` ON `teams` (`name`);--> statement-breakpoint
CREATE TABLE `user_achievements` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`achievement_id` text NOT NULL,
	`unlocked_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`progress` integer DEFAULT 100 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`achievement_id`) REFERENCES `achievements`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_achievements_unique` ON `user_achievements` (`user_id`,`achievement_id`);--> statement-breakpoint
CREATE INDEX `user_achievements_user_idx` ON `user_achievements` (`user_id`,`unlocked_at`);--> statement-breakpoint
CREATE TABLE `user_challenge_progress` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`challenge_id` text NOT NULL,
	`progress` integer DEFAULT 0 NOT NULL,
	`completed` integer DEFAULT false NOT NULL,
	`completed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`challenge_id`) REFERENCES `daily_challenges`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_challenge_unique` ON `user_challenge_progress` (`user_id`,`challenge_id`);--> statement-breakpoint
CREATE TABLE `user_collections` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`pin_id` text NOT NULL,
	`status` text NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`acquired_at` integer,
	`condition` text DEFAULT 'excellent' NOT NULL,
	`tradeable` integer DEFAULT false NOT NULL,
	`notes` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pin_id`) REFERENCES `pins`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "user_collections_status_check" CHECK(status in ('owned', 'wanted', 'trading')),
	CONSTRAINT "user_collections_condition_check" CHECK(condition in ('mint', 'excellent', 'good', 'fair', 'poor')),
	CONSTRAINT "user_collections_quantity_check" CHECK(quantity >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_collections_user_pin_unique` ON `user_collections` (`user_id`,`pin_id`);--> statement-breakpoint
CREATE INDEX `user_collections_user_status_idx` ON `user_collections` (`user_id`,`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `user_collections_pin_idx` ON `user_collections` (`pin_id`);--> statement-breakpoint
CREATE TABLE `user_inventory` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`order_id` text,
	`marketplace_pin_id` text NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`acquired_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`marketplace_pin_id`) REFERENCES `marketplace_pins`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `user_inventory_user_idx` ON `user_inventory` (`user_id`,`acquired_at`);--> statement-breakpoint
CREATE TABLE `user_stats` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`total_identifications` integer DEFAULT 0 NOT NULL,
	`successful_identifications` integer DEFAULT 0 NOT NULL,
	`pins_owned` integer DEFAULT 0 NOT NULL,
	`pins_wanted` integer DEFAULT 0 NOT NULL,
	`achievement_points` integer DEFAULT 0 NOT NULL,
	`current_streak` integer DEFAULT 0 NOT NULL,
	`longest_streak` integer DEFAULT 0 NOT NULL,
	`last_active_date` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_stats_user_unique` ON `user_stats` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`first_name` text,
	`last_name` text,
	`nickname` text,
	`profile_image_url` text,
	`role` text DEFAULT 'player' NOT NULL,
	`is_onboarding_complete` integer DEFAULT false NOT NULL,
	`stripe_customer_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "users_role_check" CHECK(role in ('player', 'manager', 'assistant_coach', 'vendor', 'admin', 'super_admin'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX `users_nickname_unique` ON `users` (lower("nickname"));--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role`);--> statement-breakpoint
CREATE INDEX `users_created_idx` ON `users` (`created_at`);--> statement-breakpoint
CREATE TABLE `vendor_application_history` (
	`id` text PRIMARY KEY NOT NULL,
	`vendor_id` text NOT NULL,
	`previous_status` text,
	`new_status` text NOT NULL,
	`changed_by` text,
	`notes` text,
	`attachments` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`changed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `vendor_history_vendor_idx` ON `vendor_application_history` (`vendor_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `vendors` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`business_name` text NOT NULL,
	`description` text,
	`contact_email` text NOT NULL,
	`contact_phone` text,
	`website_url` text,
	`business_address` text,
	`logo_url` text,
	`banner_url` text,
	`marketing_materials` text,
	`application_status` text DEFAULT 'pending' NOT NULL,
	`is_approved` integer DEFAULT false NOT NULL,
	`reviewed_by` text,
	`reviewed_at` integer,
	`admin_notes` text,
	`rejection_reason` text,
	`business_license` text,
	`tax_id` text,
	`years_in_business` integer,
	`estimated_monthly_volume` text,
	`specializations` text,
	`stripe_account_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "vendors_status_check" CHECK(application_status in ('pending', 'under_review', 'approved', 'rejected', 'needs_revision'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vendors_user_unique` ON `vendors` (`user_id`);--> statement-breakpoint
CREATE INDEX `vendors_status_idx` ON `vendors` (`application_status`);
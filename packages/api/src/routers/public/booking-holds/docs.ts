/** OpenAPI text the booking hold procedures share. */

export const TAGS = ['Public: bookings'];

/**
 * Bookings' test fixtures other packages' tests use (`@commerce/bookings/testing`). The package's
 * own tests import the fixture files of this folder directly.
 */

export { insertBooking } from './booking-factories.ts';

/** A calendar event and its attendees as both stores keep them. */
import type { CalendarEvent, EventAttendee } from '../../contract/index.js';

export type EventRow = Omit<CalendarEvent, 'attendees' | 'online_conference'>;
export type EventAttendeeRow = Omit<EventAttendee, 'is_organizer'> & { is_organizer: number };

export const EVENT_COLUMNS = `id, calendar_id, title, start, "end", body, location, cancel_note, canceled_by_id, canceled_by_type, public_id,
  provider_event_id, customer_id, meeting_link_id, created_at, updated_at, deleted_at`;

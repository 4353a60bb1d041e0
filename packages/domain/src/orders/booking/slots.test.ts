import { describe, expect, test } from 'vitest';
import { addDays, bookingSlots, changeableUntil, isoWeekday, localToday, type BookingRules } from './slots.js';

const rules = (r: Partial<BookingRules> = {}): BookingRules => ({
  horizon_days: 7,
  lead_days: 2,
  weekdays: [1, 2, 3, 4, 5],
  windows: [
    { key: 'am', label: '08–12' },
    { key: 'pm', label: '13–17' },
  ],
  zones: ['local'],
  ...r,
});

describe('delivery booking slots', () => {
  test('today is the date in the booking’s time zone (late evening UTC is tomorrow in Stockholm)', () => {
    expect(localToday(new Date('2026-11-23T23:30:00Z'), 'Europe/Stockholm')).toBe('2026-11-24');
    expect(localToday(new Date('2026-11-23T22:30:00Z'), 'Europe/Stockholm')).toBe('2026-11-23');
    expect(localToday(new Date('2026-11-23T22:30:00Z'), 'UTC')).toBe('2026-11-23');
    expect(localToday(new Date('2026-11-24T03:00:00Z'), 'America/New_York')).toBe('2026-11-23');
  });

  test('weekdays are ISO (1 Monday … 7 Sunday); dates add across months', () => {
    expect(isoWeekday('2026-11-23')).toBe(1);
    expect(isoWeekday('2026-11-29')).toBe(7);
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30'); // across the daylight-saving change
  });

  test('from today + lead_days to today + horizon_days, both included, on the weekdays, every window', () => {
    // Monday 2026-11-23: lead 2 → Wednesday 25th first; horizon 7 → Monday 30th last; weekend left out
    const slots = bookingSlots(rules(), '2026-11-23', new Map());
    expect([...new Set(slots.map((s) => s.date))]).toEqual(['2026-11-25', '2026-11-26', '2026-11-27', '2026-11-30']);
    expect(slots.slice(0, 2)).toEqual([
      { date: '2026-11-25', window: 'am', label: '08–12', full: false },
      { date: '2026-11-25', window: 'pm', label: '13–17', full: false },
    ]);
    expect(bookingSlots(rules({ lead_days: 0, horizon_days: 1, weekdays: [1, 2, 3, 4, 5, 6, 7] }), '2026-11-23', new Map()).map((s) => s.date)).toEqual(['2026-11-23', '2026-11-23', '2026-11-24', '2026-11-24']);
    expect(bookingSlots(rules({ lead_days: 3, horizon_days: 2 }), '2026-11-23', new Map())).toEqual([]);
  });

  test('a window is full once it has per_window bookings; 0 or absent means no limit', () => {
    const booked = new Map([['2026-11-25 am', 3], ['2026-11-25 pm', 2]]);
    const full = (r: BookingRules) => bookingSlots(r, '2026-11-23', booked).filter((s) => s.full).map((s) => `${s.date} ${s.window}`);
    expect(full(rules({ per_window: 3 }))).toEqual(['2026-11-25 am']);
    expect(full(rules({ per_window: 2 }))).toEqual(['2026-11-25 am', '2026-11-25 pm']);
    expect(full(rules({ per_window: 0 }))).toEqual([]);
    expect(full(rules())).toEqual([]);
  });

  test('a booking changes until its date is closer than the lead time', () => {
    expect(changeableUntil(rules(), '2026-11-23', null)).toBe(true);
    expect(changeableUntil(rules(), '2026-11-23', '2026-11-25')).toBe(true);
    expect(changeableUntil(rules(), '2026-11-24', '2026-11-25')).toBe(false);
    expect(changeableUntil(rules({ lead_days: 0 }), '2026-11-25', '2026-11-25')).toBe(true);
  });
});

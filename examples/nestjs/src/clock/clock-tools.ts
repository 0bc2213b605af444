import { Injectable } from '@nestjs/common';
import { tool } from '@toolwright/tool';

/** Tools in a second feature module: discovery covers every module of the application. */
@Injectable()
export class ClockTools {
  /**
   * Tells the weekday of a calendar date.
   * @param date An ISO date, such as 2026-11-23.
   */
  @tool({ tier: 'read-only' })
  async weekday(date: string): Promise<string> {
    const day = new Date(`${date}T00:00:00Z`);
    if (Number.isNaN(day.getTime())) throw new Error(`'${date}' is not an ISO date (YYYY-MM-DD).`);
    return day.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' });
  }
}

import { Injectable } from '@nestjs/common';

/** One reading of the repository. */
export interface Reading {
  city: string;
  celsius: number;
  summary: string;
}

const CLIMATE: Readonly<Record<string, number>> = { Lagos: 31, Oslo: 4, Lima: 19 };

/**
 * The feature module's own provider (not exported): the agent's constructor gets it from Nest,
 * because `GolemModule.forFeature` creates the agent in this module's context.
 */
@Injectable()
export class WeatherRepository {
  /** Alert subscriptions made by approved tool calls. */
  readonly subscriptions: string[] = [];

  forecast(city: string, days: number): Reading {
    const celsius = (CLIMATE[city] ?? 20) - days;
    return { city, celsius, summary: celsius > 25 ? 'Hot: take water.' : 'Mild: take a jacket.' };
  }

  subscribe(city: string, user: string): string {
    this.subscriptions.push(`${user}: ${city}`);
    return `${user} will get alerts for ${city}`;
  }
}

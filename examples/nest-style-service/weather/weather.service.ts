import { injectable } from 'inversify';

/** One reading of the weather service. */
export interface Reading {
  city: string;
  days: number;
  celsius: number;
  conditions: string[];
}

/** A provider (in NestJS terms): a stand-in for a weather API client, one per app. */
@injectable()
export class WeatherService {
  private readonly table: Readonly<Record<string, { celsius: number; conditions: string[] }>> = {
    Lagos: { celsius: 31, conditions: ['sunny', 'humid'] },
    Oslo: { celsius: 4, conditions: ['cloudy'] },
  };

  forecast(city: string, days: number): Reading {
    const reading = this.table[city] ?? { celsius: 20, conditions: ['unknown'] };
    return { city, days, ...reading };
  }
}

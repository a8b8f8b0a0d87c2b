import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';

/** Body of `POST /agents/weather` and query of `GET /agents/weather/stream`. */
export class AskWeatherDto {
  @IsString() @Length(1, 80) city!: string;

  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(7) days?: number;
}

/** Body of `POST /agents/weather/alerts`. */
export class SubscribeDto {
  @IsString() @Length(1, 80) city!: string;
}

/** One human decision on a paused call. */
export class DecisionDto {
  @IsString() @Length(1, 200) callId!: string;

  @IsBoolean() approved!: boolean;

  @IsOptional() @IsString() @Length(1, 500) reason?: string;
}

/** Body of `POST /agents/weather/alerts/:runId`: a decision for every pending call. */
export class DecideDto {
  @ValidateNested({ each: true })
  @Type(() => DecisionDto)
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  decisions!: DecisionDto[];
}

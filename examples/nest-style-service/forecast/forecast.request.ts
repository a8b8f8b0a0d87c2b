import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

/** What a client asks for, validated like a NestJS `ValidationPipe` would (`validateDto`). */
export class ForecastRequest {
  @IsString() @Length(1, 80) city!: string;
  @IsOptional() @IsInt() @Min(0) @Max(7) days?: number;
}

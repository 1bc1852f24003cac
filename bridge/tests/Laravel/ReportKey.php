<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

/** A backed enum as a cache key (Laravel 12+ takes enums for keys). */
enum ReportKey: string
{
    case Daily = 'report:daily';
}

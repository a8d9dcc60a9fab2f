// An umbrella that leaves out the flatten room's header: room_umbrellas.cmake must reject it.
#pragma once

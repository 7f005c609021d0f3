"""The box's lamps, displays and sounds, kept in line with the table: the lamps at once, each display only when it
changed, the buzzer at the moments the whole table shares.

- :mod:`.lamps`: a press answered on its seat's lamps (a hole's at once, on its edge's thread; an OK's once
  its decision is on disk), the seats' own lamps under the flashes;
- :mod:`.screens`: each display's screen handed to the display worker when it changed, the pressing seat's
  first, the panels played on phones covered, the host PIN on request;
- :mod:`.moments`: a reveal and the end on the buzzer, virtual dice tumbling on the table display.
"""
